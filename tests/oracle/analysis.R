## analysis.R -- independent answers for `stackscope report --by levels|runs`.
##
## Usage: Rscript tests/oracle/analysis.R FILE OUTDIR
##
## Reads a raw Rprof file with its own tokenizer (base R only; it does not
## call summaryRprof and shares no code with the C program or with
## the reader behind the fixtures' .indep answers) and writes
##   OUTDIR/levels.tsv  level samples distinct top top.samples
##   OUTDIR/runs.tsv    name level runs samples mean median max
## Levels: level 1 is the root (outermost frame).  "samples" at level k counts
## the samples whose stack has at least k frames; "top" is the most frequent
## name there, ties broken by the lowest name in C-locale byte order.
## Runs (stackscope(1), RUN LENGTHS): in time order, a run at level k is a
## maximal stretch of consecutive samples with the same names at levels 1..k; a
## sample with fewer than k frames is in no run at level k and ends it; a
## sample with no frames and a new session (header line) end every run.
## Per (name, level): number of runs, samples (sum of run lengths), mean,
## median (R's median()) and max run length; level "all" pools every level's
## runs of that name.  Rows are sorted by samples (desc), runs (desc), name
## (byte order), level ("all" first, then ascending).
##
## Tokenizer rules: lines end at LF, CRLF or CR; a header line
## "[memory profiling: ][GC profiling: ][line profiling: ]sample.interval=N"
## starts a new session; "#File N: path" lines are skipped; blank lines are
## skipped (they are not samples, so not gaps); a final line without a line
## end is dropped (a cut-off sample).  Every other line is a sample: the
## memory prefix ":a:b:c:d:" is removed, then the line is a sequence of
## tokens, each followed by one space: quoted names (not escaped: a name ends
## at the first '"' followed by a space and then the end of the line, another
## '"' or a F#L token) and F#L position tokens, which are dropped.  A sample
## with no names (e.g. a memory line with only the prefix) is a gap.
## Numbers are printed with sprintf("%.15g").

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 2) {
  cat("usage: Rscript analysis.R FILE OUTDIR\n", file = stderr())
  quit(status = 2)
}
path <- args[1]
outdir <- args[2]
dir.create(outdir, showWarnings = FALSE, recursive = TRUE)

num <- function(x) sprintf("%.15g", as.numeric(x))

## ---- read and split into lines -------------------------------------------------
size <- file.info(path)$size
raw <- if (size > 0) readBin(path, "raw", size) else raw(0)
last_open <- length(raw) > 0 && !(raw[length(raw)] %in% as.raw(c(10, 13)))
## CRLF -> LF, then a lone CR -> LF (strsplit with a regex is quadratic on big files)
cr <- which(raw == as.raw(13))
if (length(cr)) {
  crlf <- cr[cr < length(raw) & raw[pmin(cr + 1L, length(raw))] == as.raw(10)]
  raw[setdiff(cr, crlf)] <- as.raw(10)
  if (length(crlf)) raw <- raw[-crlf]
}
lines <- if (length(raw)) strsplit(rawToChar(raw), "\n", fixed = TRUE,
                                   useBytes = TRUE)[[1]] else character()
if (last_open && length(lines)) lines <- lines[-length(lines)]

header_re <- "^(memory profiling: )?(GC profiling: )?(line profiling: )?sample\\.interval=[0-9]+$"
is_header <- grepl(header_re, lines, perl = TRUE, useBytes = TRUE)
session <- cumsum(is_header)
is_sample <- !is_header & session > 0 & nzchar(lines) &
  !grepl("^#File [0-9]+:", lines, perl = TRUE, useBytes = TRUE)
body <- sub("^:[0-9]+:[0-9]+:[0-9]+:[0-9]+:", "", lines[is_sample], perl = TRUE, useBytes = TRUE)
sess <- session[is_sample]
n <- length(body)

## ---- tokenize each distinct line once --------------------------------------------
ubody <- unique(body)
bid <- match(body, ubody)
tok_re <- paste0('"(.*?)"(?=$| $| "| [0-9]+#[0-9]+(?: |$))', "|[0-9]+#[0-9]+(?= |$)")
toks <- regmatches(ubody, gregexpr(tok_re, ubody, perl = TRUE, useBytes = TRUE))
rootfirst <- lapply(toks, function(t) {
  nm <- t[startsWith(t, '"')]
  rev(sub('(?s)^"(.*)"$', "\\1", nm, perl = TRUE, useBytes = TRUE))
})
udepth <- lengths(rootfirst)
depth <- udepth[bid]
maxd <- if (n) max(c(0L, depth)) else 0L

## ---- per level ---------------------------------------------------------------------
lev_rows <- list()
run_name <- list()
run_level <- list()
run_len <- list()
prev_id <- ifelse(depth > 0, sess, NA_integer_) # the prefix of length 0: the session
for (k in seq_len(maxd)) {
  ## the name at level k of each distinct line (NA when too short), then per sample
  at_k <- vapply(seq_along(rootfirst), function(u)
    if (udepth[u] >= k) rootfirst[[u]][k] else NA_character_, "")
  nm <- at_k[bid]
  ok <- !is.na(nm)

  ## levels
  x <- nm[ok]
  u <- unique(x)
  cnt <- tabulate(match(x, u), length(u))
  best <- order(-cnt, u, method = "radix")[1]
  lev_rows[[k]] <- c(k, length(x), length(u), u[best], cnt[best])

  ## runs: a prefix id for levels 1..k, from the id of 1..k-1 and the name at k
  key <- paste(prev_id, nm, sep = "\001")
  id <- rep(NA_integer_, n)
  id[ok] <- match(key[ok], unique(key[ok]))
  before <- c(NA_integer_, id[-n])
  starts <- ok & (is.na(before) | before != id)
  run_of <- cumsum(starts)
  len <- tabulate(run_of[ok], max(0L, run_of))
  run_name[[k]] <- nm[starts]
  run_level[[k]] <- rep(k, sum(starts))
  run_len[[k]] <- len
  prev_id <- id
}

lev <- if (maxd) do.call(rbind, lev_rows) else matrix(character(), 0, 5)
lev_out <- c("level\tsamples\tdistinct\ttop\ttop.samples",
             if (nrow(lev)) paste(num(lev[, 1]), num(lev[, 2]), num(lev[, 3]), lev[, 4],
                                  num(lev[, 5]), sep = "\t"))
writeLines(lev_out, file.path(outdir, "levels.tsv"), useBytes = TRUE)

## ---- run statistics ------------------------------------------------------------------
rn <- unlist(run_name, use.names = FALSE)
rl <- unlist(run_level, use.names = FALSE)
rlen <- unlist(run_len, use.names = FALSE)
if (is.null(rn)) { rn <- character(); rl <- integer(); rlen <- integer() }

stats_by <- function(groups, name, level) {
  data.frame(name = name, level = level,
             runs = vapply(groups, length, 0),
             samples = vapply(groups, function(v) sum(as.numeric(v)), 0),
             mean = vapply(groups, mean, 0),
             median = vapply(groups, function(v) as.numeric(median(v)), 0),
             max = vapply(groups, function(v) as.numeric(max(v)), 0),
             stringsAsFactors = FALSE)
}
pair <- paste(rl, rn, sep = "\001")
first_of_pair <- !duplicated(pair)
g_pair <- split(rlen, factor(pair, levels = pair[first_of_pair]))
per_level <- stats_by(g_pair, rn[first_of_pair], rl[first_of_pair])
first_of_name <- !duplicated(rn)
g_name <- split(rlen, factor(rn, levels = rn[first_of_name]))
all_levels <- stats_by(g_name, rn[first_of_name], rep(0L, sum(first_of_name)))
runs <- rbind(all_levels, per_level)
runs <- runs[order(-runs$samples, -runs$runs, runs$name, runs$level, method = "radix"), ]

runs_out <- c("name\tlevel\truns\tsamples\tmean\tmedian\tmax",
              if (nrow(runs)) paste(runs$name, ifelse(runs$level == 0, "all", num(runs$level)),
                                    num(runs$runs), num(runs$samples), num(runs$mean),
                                    num(runs$median), num(runs$max), sep = "\t"))
writeLines(runs_out, file.path(outdir, "runs.tsv"), useBytes = TRUE)
