project = "Brakes"
extensions = ["score_sphinx_bundle"]
score_metamodel_yaml = "metamodel.yaml"
needs_constraints = {"critical": {"check_0": "status == 'valid'"}}
