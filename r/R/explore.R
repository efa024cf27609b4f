# explore(): the explorer in this terminal, or the command that opens it.

explore <- function(x = NULL, transforms = NULL, resume = FALSE, preset = NULL,
                    base = NULL, args = character()) {
  files <- if (is.null(x)) character(0) else profile_files(x)
  cmd <- c(if (isTRUE(resume)) "--resume",
           if (!is.null(preset)) c("--preset", preset),
           transform_args(transforms),
           base_args(base), args, files)
  if (in_terminal()) {
    status <- system2(stackscope_program(), shQuote(cmd))
    return(invisible(status))
  }
  line <- command_line(cmd)
  message("The explorer needs a terminal (this R session's console is not one). ",
          "Run in a terminal:\n  ", line)
  invisible(line)
}

# The shell command that runs the program with arguments cmd: its name
# when PATH finds it, else its path.
command_line <- function(cmd) {
  prog <- stackscope_path()
  if (is.na(prog)) prog <- "stackscope"
  if (identical(unname(Sys.which("stackscope")), prog)) prog <- "stackscope"
  paste(shell_words(c(prog, cmd)), collapse = " ")
}

# R runs in a terminal the explorer can take over: interactive, standard
# input and output terminals, a TERM that moves the cursor.
in_terminal <- function() {
  term <- Sys.getenv("TERM")
  interactive() && isatty(stdin()) && isatty(stdout()) &&
    nzchar(term) && term != "dumb"
}

# -e CMD for each transform command.
transform_args <- function(transforms) {
  if (is.null(transforms)) return(character(0))
  if (!is.character(transforms) || anyNA(transforms))
    stop("'transforms' must be a character vector of transform commands ",
         "(stackscope(1), TRANSFORMS), e.g. c(\"trim-base auto\", \"focus lm\")",
         call. = FALSE)
  as.vector(rbind("-e", transforms))
}

base_args <- function(base) {
  if (is.null(base)) return(character(0))
  as.vector(rbind("--base", profile_files(base, "base")))
}

# Words for a POSIX shell, quoted only when they must be.
shell_words <- function(x) {
  ifelse(grepl("^[A-Za-z0-9_./=:@%+,-]+$", x), x, shQuote(x))
}
