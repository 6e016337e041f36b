"""The command-line front ends (console scripts): ``inselflucht-evaluate`` (``evaluate``),
``inselflucht-enjoy`` (``enjoy``), ``inselflucht-play`` (``play``) and
``inselflucht-replay`` (``replay``); ``args`` holds their shared argument types and error
handling."""
