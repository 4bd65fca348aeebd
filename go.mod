module github.com/mcpverdict/mcpverdict

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/google/jsonschema-go v0.4.3
	github.com/jstemmer/go-junit-report/v2 v2.1.0
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/owenrumney/go-sarif/v2 v2.3.3
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/segmentio/encoding v0.5.4
	github.com/sethvargo/go-githubactions v1.4.0
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
	github.com/yosida95/uritemplate/v3 v3.0.2
	golang.org/x/sys v0.48.0
	golang.org/x/text v0.14.0
	golang.org/x/time v0.15.0
)

require (
	github.com/bmatcuk/doublestar/v4 v4.10.0 // indirect
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/fatih/color v1.19.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/mattn/go-runewidth v0.0.21 // indirect
	github.com/mattn/go-shellwords v1.0.12 // indirect
	github.com/rhysd/actionlint v1.7.12 // indirect
	github.com/robfig/cron/v3 v3.0.1 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	go.yaml.in/yaml/v4 v4.0.0-rc.3 // indirect
	golang.org/x/exp/typeparams v0.0.0-20231108232855-2478ac86f678 // indirect
	golang.org/x/mod v0.41.0 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.23.0 // indirect
	golang.org/x/tools v0.51.0 // indirect
	honnef.co/go/tools v0.8.2 // indirect
)

tool (
	github.com/rhysd/actionlint/cmd/actionlint
	honnef.co/go/tools/cmd/staticcheck
)
