# workload.R - the R workload of the verdict fixtures (tests/data/README.md):
#   Rscript workload.R OUT PLANTED N
# profiles N steps under Rprof(interval = 0.002) into OUT, after one step
# not profiled (R's JIT compiles the functions first).  A step runs a task
# of random size (no seed: each run draws its own sizes, as a program that
# works through data of its own does: about 20 ms on average, an
# exponential number of rounds), then planted_work, then six small fixed
# functions.  With PLANTED = 1, planted_work runs 5 rounds of its loop
# instead of 4: 25% more work, all of it its own (self) time (R's byte code
# runs `+`, `*` and `sqrt` inline: no frames of their own).
args <- commandArgs(TRUE)
out <- args[1]
planted <- as.numeric(args[2]) == 1
n <- as.integer(args[3])

task <- function(rounds) {
    s <- 0
    for (j in seq_len(rounds * 100000)) s <- s + sqrt(j)
    s
}
planted_work <- function(rounds) {
    s <- 0
    for (j in seq_len(rounds * 180000)) s <- s + j * 0.5
    s
}
mat_work <- function(k) {
    m <- matrix(runif(k * k), k)
    sum(m %*% m)
}
sort_work <- function(k) sum(sort(runif(k)))
str_work <- function(k) nchar(paste0("x", seq_len(k), collapse = ""))
apply_work <- function(k) sum(vapply(seq_len(k), function(i) sqrt(i) + 1, numeric(1)))
fib <- function(k) if (k < 2) k else fib(k - 1) + fib(k - 2)
list_work <- function(k) {
    l <- list()
    for (i in seq_len(k)) l[[i]] <- i
    length(l)
}
step <- function() {
    task(ceiling(rexp(1, 1 / 8)))
    planted_work(if (planted) 5 else 4)
    mat_work(40)
    sort_work(10000)
    str_work(1500)
    apply_work(1000)
    fib(10)
    list_work(800)
}

invisible(step())
Rprof(out, interval = 0.002)
for (i in seq_len(n)) step()
Rprof(NULL)
