# keep the main phase (DESIGN 14): detection on the whole timeline
keep-phase main
