# Finding and running the stackscope program.  The package holds no parser
# of its own: every number comes from the program's TSV output.

# Where the program is: NA when it is not found.
stackscope_path <- function() {
  tryCatch(stackscope_program(), error = function(e) NA_character_)
}

# The program: options(stackscope.path =), else `stackscope` on PATH.
stackscope_program <- function() {
  p <- getOption("stackscope.path")
  if (!is.null(p)) {
    if (!is.character(p) || length(p) != 1L || is.na(p) || !nzchar(p))
      stop("options(stackscope.path =) must be one string: the path of the ",
           "stackscope program", call. = FALSE)
    p <- path.expand(p)
    if (!file.exists(p) || dir.exists(p) || file.access(p, 1L) != 0L)
      stop("options(stackscope.path = \"", p, "\"): no executable file there",
           call. = FALSE)
    return(p)
  }
  p <- unname(Sys.which("stackscope"))
  if (!nzchar(p)) stop(not_found_message(), call. = FALSE)
  p
}

not_found_message <- function() {
  paste0(
    "the stackscope program is not on PATH.\n",
    "Build and install it from the stackscope source tree (on Debian, ",
    "scripts/deps.sh build installs what the build needs):\n",
    "  autoreconf -fi && ./configure && make && sudo make install\n",
    "or tell this package where it is:\n",
    "  options(stackscope.path = \"/path/to/stackscope\")")
}

# The files a function was given: paths (several combine into one profile,
# as on the command line) or a stackscope_profile.
profile_files <- function(x, what = "x") {
  if (inherits(x, "stackscope_profile")) return(x$file)
  if (!is.character(x) || !length(x) || anyNA(x) || !all(nzchar(x)))
    stop("'", what, "' must be a profile made by profile() or the paths of ",
         "profile files", call. = FALSE)
  path.expand(x)
}

# Runs `stackscope ARGS...` with standard output into the file `out`.  The
# program's warnings become R warnings; a failure (exit status not 0) an R
# error with the program's message, which names the file and line.
run_stackscope <- function(args, out = tempfile("stackscope-", fileext = ".tsv")) {
  prog <- stackscope_program()
  err <- tempfile("stackscope-", fileext = ".err")
  on.exit(unlink(err), add = TRUE)
  status <- suppressWarnings(system2(prog, shQuote(args), stdout = out,
                                     stderr = err, stdin = ""))
  msgs <- if (file.exists(err)) readLines(err, warn = FALSE) else character(0)
  msgs <- msgs[!startsWith(msgs, "Try 'stackscope --help'")]
  if (!identical(as.integer(status), 0L)) {
    unlink(out)
    if (!length(msgs)) msgs <- sprintf("exited with status %s", status)
    stop(paste(msgs, collapse = "\n"), call. = FALSE)
  }
  for (m in msgs) warning(m, call. = FALSE)
  invisible(out)
}

# One table of `stackscope report ... --format tsv` as a data frame.
report_tsv <- function(args) {
  out <- run_stackscope(c("report", "--format", "tsv", args))
  on.exit(unlink(out), add = TRUE)
  read_report(out)
}
