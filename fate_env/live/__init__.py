"""The table: ``fate-npc play``'s session (its log, saves and GM powers), the state panel, the
menus with their odds, how a GM names things, consequence names, and fight reports."""
