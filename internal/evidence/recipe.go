package evidence

import (
	"fmt"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

// Recipe names which fields of a tool declaration its contract hash covers.
// It travels with every hash: two hashes made under different recipes are
// never compared.
type Recipe string

// The recipes, as mcp-evidence-validator defines them.
const (
	// Recipe1 covers name, description, input schema and permissions. A
	// declaration, or an observed hash, that states no recipe is recipe 1.
	Recipe1 Recipe = "1"
	// Recipe2 adds the output schema and the MCP annotation hints.
	Recipe2 Recipe = "2"
	// Recipe3 adds the title and the execution parameters (taskSupport).
	Recipe3 Recipe = "3"
	// LegacyRecipe is read where none is stated.
	LegacyRecipe = Recipe1
	// LockRecipe is what `contract lock` hashes under unless told otherwise.
	LockRecipe = Recipe3
)

// recipeField is one field a recipe folds in, with the value hashed when
// the declaration does not carry it.
type recipeField struct {
	name     string
	fallback canon.Value
}

var (
	emptyObject = canon.Value{Kind: canon.Object}
	emptyArray  = canon.Value{Kind: canon.Array}
	emptyString = canon.StringValue("")
)

// recipeFields lists each recipe's fields; the fallbacks reproduce the reads
// mcp-evidence-validator performs, so its hashes and ours agree.
var recipeFields = map[Recipe][]recipeField{
	Recipe1: {{"name", canon.Value{}}, {"description", emptyString}, {"input_schema", emptyObject}, {"permissions", emptyArray}},
}

func init() {
	recipeFields[Recipe2] = append(append([]recipeField(nil), recipeFields[Recipe1]...),
		recipeField{"output_schema", emptyObject}, recipeField{"annotations", emptyObject})
	recipeFields[Recipe3] = append(append([]recipeField(nil), recipeFields[Recipe2]...),
		recipeField{"title", emptyString}, recipeField{"execution", emptyObject})
}

// Known reports whether r is a recipe this build knows.
func (r Recipe) Known() bool { _, ok := recipeFields[r]; return ok }

// Recipes lists the known recipes in order.
func Recipes() []Recipe { return []Recipe{Recipe1, Recipe2, Recipe3} }

// ParseRecipe checks a recipe named on the command line or in a file.
func ParseRecipe(s string) (Recipe, error) {
	r := Recipe(s)
	if !r.Known() {
		return "", fmt.Errorf("unknown contract recipe %q: known recipes are 1, 2 and 3", s)
	}
	return r, nil
}

// Fields names the declaration fields r covers, in the manifest's spelling.
func (r Recipe) Fields() []string {
	out := make([]string, 0, len(recipeFields[r]))
	for _, f := range recipeFields[r] {
		out = append(out, f.name)
	}
	return out
}
