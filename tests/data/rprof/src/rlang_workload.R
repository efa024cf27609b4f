## rlang_workload.R -- the workload profiled into tests/data/rprof/rlang_*.out
## (see make_rlang.R).  Line numbers matter: the tests name the callbacks by
## the lines that call lapply (square_all: line 5, cube_all: line 8).
square_all <- function(xs) {
  lapply(xs, function(x) { s <- 0; for (i in 1:3000) s <- s + x * i; s })
}
cube_all <- function(xs) {
  lapply(xs, function(x) { s <- 0; for (i in 1:3000) s <- s + x^3 + i; s })
}
busy <- function(n) {
  s <- 0
  for (i in seq_len(n)) s <- s + sqrt(i)
  s
}
guarded <- function(n) {
  tryCatch(withCallingHandlers(busy(n), warning = function(w) NULL),
           error = function(e) NULL)
}
run_all <- function(out, rounds) {
  Rprof(out, interval = 0.002, line.profiling = TRUE)
  for (k in seq_len(rounds)) {
    square_all(1:40)
    cube_all(1:40)
    guarded(30000)
    eval(quote(busy(20000)))
  }
  Rprof(NULL)
}
