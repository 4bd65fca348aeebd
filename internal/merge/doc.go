// Package merge folds the output folders of several jobs (a workflow's
// matrix, one server each, downloaded as artifacts) into one: one report in
// every format, a job summary with a row per job, and one ledger whose
// blocks name each job's ledger head and signed bundle, so that verifying
// the merged ledger verifies every job's chain beneath it.
//
// A merged folder holds the reports, the merged ledger and its head, and
// under jobs/NAME/ a copy of each job's report.json, ledger, head and
// bundle: the folder verifies on its own, wherever it is moved.
package merge
