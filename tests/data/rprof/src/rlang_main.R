## rlang_main.R -- source()d by make_rlang.R, so that the profile has R's
## Rscript scaffold (source, withVisible, eval) above the user's run_all.
run_all(out_file, rounds)
