# Profile the demo workload (demo/regression.R) with Rprof and write the raw
# profile. Run through make-demo.sh, which fixes the paths afterwards:
#   Rscript make-demo.R OUT WORKLOAD [REPS [SEED]]
# The workload is sourced with keep.source=TRUE so that line profiling writes
# "#File" lines and F#L location tokens pointing into it.
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 2L)
  stop("usage: Rscript make-demo.R OUT WORKLOAD [REPS [SEED]]")
out <- args[[1L]]
workload <- args[[2L]]
reps <- if (length(args) >= 3L) as.integer(args[[3L]]) else 150L
seed <- if (length(args) >= 4L) as.integer(args[[4L]]) else 20240607L

source(workload, keep.source = TRUE)
set.seed(seed)
Rprof(out, interval = 0.005, memory.profiling = TRUE, line.profiling = TRUE)
result <- main(reps = reps)
Rprof(NULL)
cat(sprintf("%d coefficient rows; %.1f s elapsed under the profiler\n",
            nrow(result), attr(result, "timing")[["elapsed"]]))
