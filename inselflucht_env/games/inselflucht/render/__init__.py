"""Pictures of an Inselflucht state: text (``text``), RGB images (``image``) and the
one-line narration of an action (``narrate``)."""
