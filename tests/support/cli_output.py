"""What a command said, as the tests read it."""

# A command run while the kernel cache is cold says that it compiles (the compile notice,
# ``tichusim/_compile/notice.py``) before its own output: which test of a worker meets the
# cold cache first depends on how the tests are spread over the workers.
NOTICE = ("tichusim: compiling ", "tichusim: compiled ")


def said_lines(output: str) -> list[str]:
    """The non-blank lines of a command's ``output``, the compile notice's left out."""
    return [line for line in output.splitlines() if line.strip() and not line.startswith(NOTICE)]
