package exampleserver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// promptDef is a prompt with what its arguments accept and how it renders.
// Every argument here takes one of a closed set of values, which serves
// both to validate prompts/get and to answer completion/complete.
type promptDef struct {
	prompt  *mcp.Prompt
	choices map[string]func() []string // argument name → accepted values
	render  func(args map[string]string) *mcp.GetPromptResult
}

var (
	styles = []string{"brief", "detailed"}
	units  = []string{"celsius", "fahrenheit"}
)

func fixed(values []string) func() []string { return func() []string { return values } }

func (e *exampleServer) promptDefs() []promptDef {
	return []promptDef{
		{
			prompt: &mcp.Prompt{
				Name: "introduce_server", Title: "Introduce this server",
				Description: "Asks the model to introduce the example server, with its README attached.",
			},
			render: renderIntroduction,
		},
		{
			prompt: &mcp.Prompt{
				Name: "summarize_note", Title: "Summarize a note",
				Description: "Asks the model to summarize one of the in-memory notes, attached as an embedded resource.",
				Arguments: []*mcp.PromptArgument{
					{Name: "name", Title: "Note", Description: "the note to summarize (completes)", Required: true},
					{Name: "style", Title: "Style", Description: "brief (default) or detailed"},
				},
			},
			choices: map[string]func() []string{"name": e.notes.names, "style": fixed(styles)},
			render:  e.renderNoteSummary,
		},
		{
			prompt: &mcp.Prompt{
				Name: "weather_report", Title: "Write a weather report",
				Description: "Asks the model to write a short weather report from the fixed weather table.",
				Arguments: []*mcp.PromptArgument{
					{Name: "city", Title: "City", Description: "a city in the weather table (completes)", Required: true},
					{Name: "unit", Title: "Unit", Description: "celsius (default) or fahrenheit"},
				},
			},
			choices: map[string]func() []string{"city": cityNames, "unit": fixed(units)},
			render:  renderWeatherReport,
		},
	}
}

func (e *exampleServer) addPrompts() {
	e.prompts = map[string]promptDef{}
	for _, def := range e.promptDefs() {
		e.prompts[def.prompt.Name] = def
		e.server.AddPrompt(def.prompt, def.handle)
	}
}

func (def promptDef) handle(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	if err := def.validate(req.Params.Arguments); err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	return def.render(req.Params.Arguments), nil
}

// validate checks arguments before rendering, as the specification asks:
// required ones present, none unknown, each one of its accepted values.
func (def promptDef) validate(args map[string]string) error {
	name := def.prompt.Name
	for _, a := range def.prompt.Arguments {
		if _, ok := args[a.Name]; a.Required && !ok {
			return fmt.Errorf("prompt %q needs the argument %q", name, a.Name)
		}
	}
	for arg, value := range args {
		choices, known := def.choices[arg]
		if !known {
			return fmt.Errorf("prompt %q has no argument %q", name, arg)
		}
		if accepted := choices(); !containsFold(accepted, value) {
			return fmt.Errorf("prompt %q: %q is not a valid %s; use one of %s", name, value, arg, strings.Join(accepted, ", "))
		}
	}
	return nil
}

func containsFold(values []string, v string) bool {
	return slices.ContainsFunc(values, func(s string) bool { return strings.EqualFold(s, v) })
}

// orDefault returns the argument's value, or def when it was not given.
func orDefault(args map[string]string, name, def string) string {
	if v, ok := args[name]; ok {
		return strings.ToLower(v)
	}
	return def
}

func userText(text string) *mcp.PromptMessage {
	return &mcp.PromptMessage{Role: "user", Content: &mcp.TextContent{Text: text}}
}

func userResource(c *mcp.ResourceContents) *mcp.PromptMessage {
	return &mcp.PromptMessage{Role: "user", Content: &mcp.EmbeddedResource{Resource: c}}
}

func renderIntroduction(map[string]string) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{
		Description: "Introduce the example server",
		Messages: []*mcp.PromptMessage{
			userResource(&mcp.ResourceContents{URI: readmeURI, MIMEType: "text/markdown", Text: readme()}),
			userText("Introduce this MCP server to a new user in three sentences, using the README above."),
		},
	}
}

func (e *exampleServer) renderNoteSummary(args map[string]string) *mcp.GetPromptResult {
	name := args["name"]
	text, _ := e.notes.text(name) // validated: the note exists
	ask := "Summarize the note above in one sentence."
	if orDefault(args, "style", "brief") == "detailed" {
		ask = "Summarize the note above in a short paragraph, keeping every item it mentions."
	}
	return &mcp.GetPromptResult{
		Description: "Summarize the note " + name,
		Messages: []*mcp.PromptMessage{
			userResource(&mcp.ResourceContents{URI: noteURI(name), MIMEType: noteMIMEType, Text: text}),
			userText(ask),
		},
	}
}

func renderWeatherReport(args map[string]string) *mcp.GetPromptResult {
	o, _ := lookupObservation(args["city"]) // validated: the city is in the table
	temperature := fmt.Sprintf("%.1f °C", o.TemperatureC)
	if orDefault(args, "unit", "celsius") == "fahrenheit" {
		temperature = fmt.Sprintf("%.1f °F", o.TemperatureC*9/5+32)
	}
	return &mcp.GetPromptResult{
		Description: "Weather report for " + o.City,
		Messages: []*mcp.PromptMessage{
			userText(fmt.Sprintf("Write a two-sentence weather report for %s from this observation: %s, %s, relative humidity %d%%.",
				o.City, o.Conditions, temperature, o.HumidityPct)),
		},
	}
}
