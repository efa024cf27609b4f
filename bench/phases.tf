# keep the main phase (stackscope(1), PHASES): detection on the whole timeline
keep-phase main
