# The program under test: $STACKSCOPE (scripts/test.sh sets it to the program
# it just built; then a missing program fails the tests), else the one on
# PATH (else the tests skip).
program_env <- Sys.getenv("STACKSCOPE")
if (nzchar(program_env)) options(stackscope.path = program_env)

skip_if_no_program <- function() {
  if (nzchar(program_env)) return(invisible())
  ok <- tryCatch({
    stackscope:::stackscope_program()
    TRUE
  }, error = function(e) FALSE)
  if (!ok) skip("the stackscope program is not installed")
}

extdata <- function(name) system.file("extdata", name, package = "stackscope",
                                      mustWork = TRUE)
fixture <- function(name) test_path("data", name)

# The source tree's tests/data (scripts/test.sh sets STACKSCOPE_TESTDATA):
# every Rprof fixture of the program's own suite, with the independent
# parser's answers in NAME.indep/.
repo_testdata <- function() {
  d <- Sys.getenv("STACKSCOPE_TESTDATA")
  if (!nzchar(d)) skip("STACKSCOPE_TESTDATA is not set (the source tree's tests/data)")
  d
}

# R's own answer, as the oracle: one chunk (no 5000-line memory restart).
r_summary <- function(file, memory = "none", lines = "hide") {
  suppressWarnings(utils::summaryRprof(file, memory = memory, lines = lines,
                                       chunksize = -1L))
}

quiet <- function(expr) suppressWarnings(expr)
