// Package precommit holds the tests of seg as a pre-commit hook
// (.pre-commit-hooks.yaml at the repository's top, docs/precommit.md):
// they run the real pre-commit tool on temporary git repositories, and
// check the blame rule of seg check ROOT FILE... directly. It has no code
// of its own.
package precommit
