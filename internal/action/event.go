package action

import "github.com/sethvargo/go-githubactions"

// fromFork reports whether the run is for a pull request whose head lives
// in another repository than the one the workflow runs in: its token is
// read-only and it has no access to code scanning, so the upload is skipped
// rather than refused. (head.repo.fork alone says nothing: a pull request
// inside a forked repository is not from a fork.)
func fromFork(gh *githubactions.GitHubContext) bool {
	pr, ok := gh.Event["pull_request"].(map[string]any)
	if !ok {
		return false
	}
	head, _ := pr["head"].(map[string]any)
	repo, ok := head["repo"].(map[string]any)
	if !ok {
		return true // the head repository was deleted: a fork that is gone
	}
	name, _ := repo["full_name"].(string)
	return gh.Repository != "" && name != "" && name != gh.Repository
}
