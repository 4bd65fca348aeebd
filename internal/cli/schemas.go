package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
)

// judgeOptions turns the flags into judge options, with the wire-schema
// validators of every revision whose schema can be found.
func (c *Command) judgeOptions(f *judgeFlags) (judge.Options, error) {
	opts, err := f.options()
	if err != nil {
		return opts, err
	}
	dirs := wireschema.Candidates(f.schemaDir, os.Getenv(wireschema.EnvDir))
	opts.Schemas = map[string]*wireschema.Validator{}
	for _, rev := range spec.Revisions {
		v, err := loadSchema(dirs, rev)
		if err != nil {
			if f.schemaDir != "" && !errors.Is(err, wireschema.ErrNotFound) {
				return opts, exitcode.Wrap(exitcode.Usage, err)
			}
			continue
		}
		opts.Schemas[rev] = v
	}
	collectForJudging(len(opts.Schemas))
	return opts, nil
}

func loadSchema(dirs []string, rev string) (*wireschema.Validator, error) {
	path, err := wireschema.Find(dirs, rev)
	if err != nil {
		return nil, err
	}
	v, err := wireschema.Load(path, rev)
	if err != nil {
		return nil, fmt.Errorf("wire schema: %w", err)
	}
	return v, nil
}
