"""sphinx-needs documentation build configuration file"""

# An excerpt of docs/conf.py of useblocks/sphinx-needs (commit c5acec6):
# the statements seg reads, verbatim, and some it must read past.

import datetime
import os
from pathlib import Path
from typing import Any

from sphinx_needs import __version__

# -- General configuration ------------------------------------------------

# General information about the project.
project = "Sphinx-Needs"
now = datetime.datetime.now()
copyright = f"2017-{now.year}, team useblocks"
author = "team useblocks"

master_doc = "index"
language = "en"

version = release = __version__

# set theme based on environment variable or file
DOCS_THEME = os.getenv("DOCS_THEME", "alabaster")
if (_path := Path(__file__).parent.joinpath("DOCS_THEME")).is_file():
    DOCS_THEME = _path.read_text().strip()

extensions = [
    "sphinx.ext.intersphinx",
    "sphinx.ext.extlinks",
    "sphinxcontrib.plantuml",
    "sphinx_needs",
    "sphinx.ext.autodoc",
    "sphinx_copybutton",
    "sphinxcontrib.programoutput",
    "sphinx_design",
    "sphinx.ext.duration",
    "sphinx.ext.todo",
]
if DOCS_THEME == "sphinx_immaterial":
    extensions.append("sphinx_immaterial")

suppress_warnings = ["needs.link_outgoing"]

exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
exclude_patterns += os.getenv("SPHINX_EXCLUDE", "").split(",")

# -- Options for Needs extension ---------------------------------------

needs_from_toml = "ubproject.toml"

needs_debug_measurement = "READTHEDOCS" in os.environ  # run on CI
needs_debug_filters = True


def custom_defined_func():
    return "List of contributors:"


needs_render_context = {
    "custom_data_1": "Project_X",
    "custom_data_2": custom_defined_func(),
    "custom_data_3": True,
    "custom_data_4": [("Daniel", 811982), ("Marco", 234232)],
}
