# A sphinx-needs project that silences one warning type: seg lists what
# it silences under "suppressed" (cli/docs_test.go).
extensions = ["sphinx_needs"]
needs_types = [
    dict(directive="req", title="Requirement", prefix="R_", color="", style=""),
]
suppress_warnings = ["needs.needextend"]
