# Configuration file for the Sphinx documentation builder.
#
# An excerpt of docs/basic_example/conf.py of useblocks/sphinx-needs-demo
# (commit daa9895): the statements seg reads, verbatim.
import os
import shutil

import jinja2

project = "Sphinx-Needs Demo - Basic Example"
copyright = "2026, team useblocks"
author = "team useblocks"
version = "1.0"

# List of Sphinx extension to use.
extensions = [
    "sphinx_needs",
    "sphinx_design",
    "sphinxcontrib.plantuml",
    "sphinx_simplepdf",
    "sphinx_preview",
]

needs_from_toml = "ubproject.toml"

exclude_patterns = [
    "_build",
    "Thumbs.db",
    ".DS_Store",
    "demo_page_header.rst",
]
