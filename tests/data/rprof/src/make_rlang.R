## make_rlang.R -- writes tests/data/rprof/rlang_line.out, the R-made
## profile of tests/transforms.sh's R checks (issue 16):
##   cd tests/data/rprof/src && Rscript make_rlang.R ../rlang_line.out [ROUNDS]
## Rprof(line.profiling = TRUE) over rlang_workload.R's run_all(), which is
## in every sample (it starts and stops the profiler), called from
## rlang_main.R through source(), as a script run by Rscript would be.
args <- commandArgs(TRUE)
out_file <- normalizePath(args[1], mustWork = FALSE)
rounds <- if (length(args) > 1) as.integer(args[2]) else 12L
set.seed(1)
invisible(compiler::enableJIT(0)) # no JIT-compile frames: every FUN is a callback of the workload
source("rlang_workload.R", keep.source = TRUE)
source("rlang_main.R", keep.source = TRUE)
