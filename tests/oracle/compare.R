# Compares stackscope's TSV reports of one Rprof file with R's summaryRprof.
#
#   LC_ALL=C Rscript tests/oracle/compare.R RDIR OURDIR INDEPDIR FILE
#
# RDIR      what tests/oracle/summaryrprof.R wrote for FILE
# OURDIR    stackscope's `report --format tsv` output for FILE: self.tsv
#           (--by self), total.tsv (--by total), line.tsv (--by line; line
#           profiles), mem.tsv (--by self --memory; memory profiles)
# INDEPDIR  the independent parser's answers (functions.tsv, sessions.tsv)
#
# R rounds and stackscope prints full precision, so for every row of R's table
# the stackscope row with the same name must round to R's numbers: times to 3
# decimals when the interval is under 0.01 s, else 2; pct to 2; mem.total to 1.
# On an exact .5 tie at that digit (within 1e-9) either neighbour is accepted,
# since R's and our unrounded doubles may differ in the last bit. R's by.self
# drops rows whose rounded self.time is 0: our extra rows must round to 0.
# by.total and by.line list every name: the name sets must be equal. The sum of
# our self.time must equal R's sampling.time.
#
# R is only trusted on files it reads correctly. A file is compared with R only
# if summaryRprof succeeds, the file has one session (R reads later headers as
# samples and keeps the first interval), and R's default tables agree, under
# the rules above, with the independent parser's counts times the interval
# (this catches names with spaces, a cut-off last line and location-only
# samples). Memory is compared only if R's memory="both" succeeds and agrees
# with the independent memory column.
#
# Output: one line per mismatch; "skip R: REASON" when R is not trusted.
# Exit status: 0 all equal, 1 mismatches, 2 R not trusted (nothing compared).

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 4L) {
  cat("usage: Rscript compare.R RDIR OURDIR INDEPDIR FILE\n", file = stderr())
  quit(status = 3L)
}
rdir <- args[[1L]]
ourdir <- args[[2L]]
indepdir <- args[[3L]]
infile <- args[[4L]]
invisible(Sys.setlocale("LC_COLLATE", "C"))

key_cols <- c("name", "location", "label", "stack", "header", "mode", "status")
read_tsv <- function(path) {
  df <- read.delim(path, quote = "", comment.char = "", na.strings = character(0),
                   colClasses = "character", check.names = FALSE,
                   encoding = "bytes")
  for (cl in setdiff(names(df), key_cols))
    df[[cl]] <- type.convert(df[[cl]], as.is = TRUE, na.strings = "NA")
  df
}
# stackscope's --by line calls its first column "location"
key_of <- function(df) if ("name" %in% names(df)) df$name else df$location

fmt <- function(x) sprintf("%.15g", x)

# Does our unrounded x round to R's r at `digits` decimals?
rounds_to <- function(x, r, digits) {
  scale <- 10^digits
  if (abs(round(x, digits) - r) <= 1e-9 * max(1, abs(r))) return(TRUE)
  # an exact tie: accept either neighbour
  tie <- (floor(x * scale) + 0.5) / scale
  abs(x - tie) <= 1e-9 && abs(x - r) <= 0.5 / scale + 1e-9
}

# Compares `ours` (unrounded) with R's table `r`. kind "self": R's rows are a
# subset (R dropped rows rounding to 0); kind "all": same set of names.
# Returns the mismatch messages.
compare_table <- function(tag, r, ours, digits, kind, who = "stackscope") {
  msgs <- character(0)
  say <- function(...) msgs <<- c(msgs, paste0(tag, ": ", ...))
  okeys <- key_of(ours)
  rkeys <- r$name
  dup <- unique(okeys[duplicated(okeys)])
  for (k in dup) say(who, " has several rows named '", k, "'")
  cols <- intersect(c("self.time", "self.pct", "total.time", "total.pct",
                      "mem.total"), names(r))
  digits_of <- c(self.time = digits, total.time = digits, self.pct = 2,
                 total.pct = 2, mem.total = 1)
  idx <- match(rkeys, okeys)
  for (i in seq_along(rkeys)) {
    if (is.na(idx[i])) {
      say("'", rkeys[i], "' is in R's table (",
          paste(cols, fmt(unlist(r[i, cols])), sep = " ", collapse = ", "),
          ") but not in ", who, "'s")
      next
    }
    for (cl in cols) {
      if (!cl %in% names(ours)) next
      x <- ours[[cl]][idx[i]]
      if (!rounds_to(x, r[[cl]][i], digits_of[[cl]]))
        say("'", rkeys[i], "' ", cl, ": R ", fmt(r[[cl]][i]), ", ", who, " ",
            fmt(x), " (rounds to ", fmt(round(x, digits_of[[cl]])), ")")
    }
  }
  extra <- which(!okeys %in% rkeys)
  for (j in extra) {
    if (kind == "all")
      say("'", okeys[j], "' is in ", who, "'s table but not in R's")
    else if (!rounds_to(ours$self.time[j], 0, digits))
      say("'", okeys[j], "' is not in R's by.self but its self.time ",
          fmt(ours$self.time[j]), " does not round to 0")
  }
  msgs
}

# ---- R's answers
info <- read_tsv(file.path(rdir, "info.tsv"))
status_of <- function(mode) {
  s <- info$status[info$mode == mode]
  if (length(s)) s else "absent"
}
error_of <- function(mode) {
  p <- file.path(rdir, paste0(mode, ".error"))
  if (file.exists(p)) paste(readLines(p, warn = FALSE), collapse = " ") else "?"
}
skip <- function(reason) {
  cat("skip R: ", reason, "\n", sep = "")
  quit(status = 2L)
}

if (status_of("default") != "ok")
  skip(paste("summaryRprof fails:", error_of("default")))

sessions <- read_tsv(file.path(indepdir, "sessions.tsv"))
if (nrow(sessions) > 1L)
  skip(sprintf("%d sessions (header lines): R reads later headers as samples and uses the first interval",
               nrow(sessions)))

interval <- info$sample.interval[info$mode == "default"]
digits <- if (interval < 0.01) 3L else 2L
r_self <- read_tsv(file.path(rdir, "self.tsv"))
r_total <- read_tsv(file.path(rdir, "total.tsv"))

# ---- is R right on this file? Check it against the independent parser.
fun <- read_tsv(file.path(indepdir, "functions.tsv"))
fun <- fun[fun$total_samples > 0, , drop = FALSE]
indep_interval <- sessions$interval_us[1L] / 1e6
indep <- data.frame(name = fun$label,
                    self.time = fun$self_samples * indep_interval,
                    total.time = fun$total_samples * indep_interval,
                    stringsAsFactors = FALSE)
indep_sum <- sum(indep$self.time)
indep$self.pct <- 100 * indep$self.time / indep_sum
indep$total.pct <- 100 * indep$total.time / indep_sum
disagree <- c(compare_table("by.self", r_self, indep, digits, "self", "independent"),
              compare_table("by.total", r_total, indep, digits, "all", "independent"))
if (length(disagree)) {
  why <- character(0)
  if (any(grepl(" ", fun$label, fixed = TRUE)))
    why <- c(why, "names with spaces (R splits them)")
  size <- file.size(infile)
  if (size > 0) {
    con <- file(infile, "rb")
    bytes <- readBin(con, "raw", size)
    close(con)
    last <- bytes[length(bytes)]
    if (last != as.raw(10) && last != as.raw(13))
      why <- c(why, "last line cut off (R counts it)")
  }
  if (sessions$line[1L] && !sessions$memory[1L] &&
      sessions$n_with_frames[1L] < sessions$n_sample_lines[1L])
    why <- c(why, "location-only samples (R counts them as <no location>)")
  skip(sprintf("R disagrees with the independent parser%s, e.g. %s",
               if (length(why)) paste0(" (", paste(why, collapse = "; "), ")") else "",
               disagree[1L]))
}

# ---- stackscope against R
msgs <- character(0)
ours_self <- read_tsv(file.path(ourdir, "self.tsv"))
ours_total <- read_tsv(file.path(ourdir, "total.tsv"))
msgs <- c(msgs, compare_table("--by self vs by.self", r_self, ours_self, digits, "self"),
          compare_table("--by total vs by.total", r_total, ours_total, digits, "all"))
sampling <- info$sampling.time[info$mode == "default"]
check_sum <- function(tag, ours, r_sampling) {
  s <- sum(ours$self.time)
  if (abs(s - r_sampling) > 1e-9 * max(1, r_sampling))
    msgs <<- c(msgs, sprintf("%s: sum of self.time %s, R's sampling.time %s",
                             tag, fmt(s), fmt(r_sampling)))
}
check_sum("--by self", ours_self, sampling)

if (status_of("line") == "ok") {
  r_line <- read_tsv(file.path(rdir, "line.tsv"))
  ours_line <- read_tsv(file.path(ourdir, "line.tsv"))
  msgs <- c(msgs, compare_table("--by line vs by.line", r_line, ours_line,
                                digits, "all"))
  check_sum("--by line", ours_line, info$sampling.time[info$mode == "line"])
} else if (status_of("line") == "error") {
  cat("note: R's lines=\"show\" fails: ", error_of("line"), "\n", sep = "")
}

if (status_of("mem") == "ok") {
  r_mem_self <- read_tsv(file.path(rdir, "mem_self.tsv"))
  r_mem_total <- read_tsv(file.path(rdir, "mem_total.tsv"))
  indep_mem <- indep
  indep_mem$mem.total <- fun$mem_total_MB_unrounded
  bad <- compare_table("mem", r_mem_total, indep_mem, digits, "all", "independent")
  if (length(bad)) {
    cat("note: memory not compared: R's memory=\"both\" disagrees with the independent parser, e.g. ",
        bad[1L], "\n", sep = "")
  } else {
    ours_mem <- read_tsv(file.path(ourdir, "mem.tsv"))
    msgs <- c(msgs,
              compare_table("--by self --memory vs by.self", r_mem_self,
                            ours_mem, digits, "self"),
              compare_table("--by self --memory vs by.total", r_mem_total,
                            ours_mem, digits, "all"))
  }
} else if (status_of("mem") == "error") {
  cat("note: memory not compared: R's memory=\"both\" fails: ", error_of("mem"), "\n", sep = "")
}

if (length(msgs)) {
  shown <- head(msgs, 30L)
  cat(paste0("  ", shown, "\n"), sep = "")
  if (length(msgs) > 30L) cat(sprintf("  ... %d more\n", length(msgs) - 30L))
  quit(status = 1L)
}
quit(status = 0L)
