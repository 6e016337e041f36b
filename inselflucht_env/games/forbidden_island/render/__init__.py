"""Pictures of a Forbidden Island state: text (``text``) and RGB images (``image``)."""
