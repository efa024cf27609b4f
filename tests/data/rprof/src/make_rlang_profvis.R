## make_rlang_profvis.R -- writes tests/data/rprof/rlang_profvis.out: the
## profile profvis (Debian's r-cran-profvis) writes for rlang_workload.R:
##   cd tests/data/rprof/src && Rscript make_rlang_profvis.R ../rlang_profvis.out
##   ... and with simplify = FALSE:
##   Rscript make_rlang_profvis.R ../rlang_profvis_nosimplify.out nosimplify
## profvis() profiles with memory, GC and line profiling and
## filter.callframes = TRUE (its simplify); its own frames (profvis,
## tryCatch, force, ...) are in every sample, above run_all's work.
args <- commandArgs(TRUE)
out_file <- normalizePath(args[1], mustWork = FALSE)
set.seed(1)
invisible(compiler::enableJIT(0))
source("rlang_workload.R", keep.source = TRUE)
work <- function(rounds) {
  for (k in seq_len(rounds)) {
    square_all(1:40)
    cube_all(1:40)
    guarded(30000)
  }
}
simplify <- length(args) < 2 || args[2] != "nosimplify"
invisible(profvis::profvis(work(8), interval = 0.005, prof_output = out_file, simplify = simplify))
