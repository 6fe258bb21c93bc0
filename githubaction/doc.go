// Package githubaction holds the tests of seg's GitHub Action (action.yml
// at the repository's top, docs/ci.md) and of the workflow files: they
// validate the files against the GitHub Actions schemas with a real
// validator, and run the action's shell steps with bash on sample trees,
// as the runner would. It has no code of its own.
package githubaction
