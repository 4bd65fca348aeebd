package evidence

import "encoding/json"

// Check names one kind of finding; reporters make one rule per check.
type Check string

// The checks. The first six are mcp-evidence-validator's (declared versus
// observed); the last two belong to contract drift against a lockfile.
const (
	// BoundUnmutated: the observed contract is the declared one and an
	// annotation is bound to it. The healthy baseline, never a finding.
	BoundUnmutated Check = "bound_unmutated"
	// ContractMutated: the contract moved since it was declared (or locked).
	ContractMutated Check = "contract_mutated"
	// ScopeViolation: arguments outside what the declared input schema allows.
	ScopeViolation Check = "scope_violation"
	// UnknownTool: a tool observed that was never declared.
	UnknownTool Check = "unknown_tool"
	// UnboundAnnotation: the contract held, but no annotation is bound to it.
	UnboundAnnotation Check = "unbound_annotation"
	// RecipeMismatch: the two hashes were made under different recipes, so
	// they were not compared.
	RecipeMismatch Check = "recipe_mismatch"
	// ToolAdded: a tool the server lists that the lockfile does not hold.
	ToolAdded Check = "tool_added"
	// ToolRemoved: a tool the lockfile holds that the server no longer lists.
	ToolRemoved Check = "tool_removed"
)

// Severity ranks a finding as mcp-evidence-validator does.
type Severity string

// The severities.
const (
	High   Severity = "high"
	Medium Severity = "medium"
	Low    Severity = "low"
)

// CheckInfo describes a check for reporters (a SARIF rule, a help line).
type CheckInfo struct {
	Check    Check
	Severity Severity
	// Title is a short name; Help says what the finding means and what to do.
	Title, Help string
}

// Checks lists every check with its description, in a stable order.
var Checks = []CheckInfo{
	{BoundUnmutated, "", "Contract bound and unmutated", "The observed contract is the declared one, and an annotation is bound to it."},
	{ContractMutated, Medium, "Contract mutated", "The tool's contract changed since it was declared or locked: any annotation or client bound to the old contract is stale. Review the change, then re-lock (mcpverdict contract lock)."},
	{ScopeViolation, High, "Arguments outside the declared scope", "A call carried arguments the tool's declared input schema does not allow: unknown properties, wrong types, missing required ones or values outside an enum."},
	{UnknownTool, High, "Undeclared tool", "A tool was observed that the declaration does not carry."},
	{UnboundAnnotation, Low, "No annotation bound", "The contract held, but no annotation of the declaration is bound to it."},
	{RecipeMismatch, High, "Contract recipes differ", "The two contract hashes were computed under different recipes, so they were not compared: the check could not run."},
	{ToolAdded, Medium, "Tool added", "The server lists a tool the contract lockfile does not hold. Review it, then re-lock."},
	{ToolRemoved, Medium, "Tool removed", "The contract lockfile holds a tool the server no longer lists. Clients that call it will fail."},
}

// Info returns the description of c.
func (c Check) Info() CheckInfo {
	for _, info := range Checks {
		if info.Check == c {
			return info
		}
	}
	return CheckInfo{Check: c}
}

// Finding is one gap between what a tool declared (or was locked as) and
// what was observed. Its JSON keeps mcp-evidence-validator's names
// (observation_index, check, severity, detail, declared_contract, …).
type Finding struct {
	// ObservationIndex is the observation's own index (declared versus
	// observed findings only).
	ObservationIndex *int     `json:"observation_index,omitempty"`
	Check            Check    `json:"check"`
	Severity         Severity `json:"severity"`
	// Tool names the tool the finding is about.
	Tool string `json:"tool,omitempty"`
	// Detail says what is wrong, in a sentence.
	Detail string `json:"detail"`
	// Recipe is the recipe both contracts were hashed under.
	Recipe           Recipe `json:"contract_recipe,omitempty"`
	DeclaredContract string `json:"declared_contract,omitempty"`
	ObservedContract string `json:"observed_contract,omitempty"`
	// DeclaredRecipe and ObservedRecipe are set on recipe_mismatch;
	// ObservedRecipeStated says whether the observation named its recipe.
	DeclaredRecipe       Recipe `json:"declared_recipe,omitempty"`
	ObservedRecipe       Recipe `json:"observed_recipe,omitempty"`
	ObservedRecipeStated *bool  `json:"observed_recipe_stated,omitempty"`
	// Violations lists each argument problem of a scope_violation.
	Violations []Violation `json:"violations,omitempty"`
	// Changes lists the fields that moved, for contract_mutated against a
	// lockfile.
	Changes []FieldChange `json:"changes,omitempty"`
	// Location is where the repository declares the tool, when found.
	Location *Location `json:"location,omitempty"`
}

// Violation is one way an argument breaks the declared input schema.
type Violation struct {
	// Path is the argument's JSON path, $ being the arguments object.
	Path    string `json:"path"`
	Problem string `json:"problem"`
}

// FieldChange is one declaration field that differs between the lockfile
// and what the server lists now.
type FieldChange struct {
	// Field is the manifest's name for it (description, input_schema,
	// output_schema, annotations, title, execution, …).
	Field string `json:"field"`
	// Old and New are the values, absent when the field was or is missing.
	Old json.RawMessage `json:"old,omitempty"`
	New json.RawMessage `json:"new,omitempty"`
}

// Location is a place in the repository.
type Location struct {
	// Path is relative to the repository root, with forward slashes.
	Path string `json:"path"`
	Line int    `json:"line"`
}
