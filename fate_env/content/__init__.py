"""What the tool reads and checks: scene files and their schema, rule sets, one-line NPC specs,
imported characters, model files, the words of narration, and the bounded readers and safe
writers every file goes through. Imports only ``fate_env.rules``."""
