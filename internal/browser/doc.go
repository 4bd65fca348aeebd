// Package browser holds the tests that open what mcpverdict shows people,
// report.html and the pages of mcpverdict serve, in headless Chromium and
// check what a person sees there. It has no code of its own.
package browser
