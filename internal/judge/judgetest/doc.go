// Package judgetest holds the helpers the judge's packages share in their
// tests.
package judgetest
