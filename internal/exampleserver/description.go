package exampleserver

// Description says what the example server offers. It is the --help text
// of `mcpverdict example-server` and the body of the example://readme
// resource; a test holds it to the tools, resources and prompts the server
// really registers.
const Description = `Tools (each declares title, readOnlyHint, destructiveHint, idempotentHint
and openWorldHint explicitly; none reaches the network):
  echo            read-only    returns its message as text
  add             read-only    adds two numbers; output schema, structured content
  logo            read-only    returns a 16x16 PNG as image content
  slow_count      read-only    counts to 4 in 2 s (adjustable); sends progress
                               when given a progressToken; stops when cancelled
  remember        writes       adds a line to an in-memory note; idempotent and
                               not destructive (lines are only ever added)
  forget          destructive  deletes a note; idempotent
  lookup_weather  read-only    answers from a fixed table (openWorldHint false);
                               an unknown city is a tool error (isError)
  greet           read-only    asks the user's name by form elicitation (as an
                               input_required result under 2026-07-28) and
                               greets them by it

Resources:
  example://readme        this text, as Markdown
  example://logo.png      the logo, a binary (blob) resource
  example://weather.json  the weather table
  notes://{name}          template; each note is also listed as a resource,
                          so remember and forget change the list
                          (list_changed) and a subscribed note sends
                          resources/updated when it changes

Prompts:
  introduce_server   no arguments; embeds the readme
  summarize_note     name (required), style (optional: brief, detailed)
  weather_report     city (required), unit (optional: celsius, fahrenheit)

Also: completion of every prompt argument and of the notes:// template
variable; logging (logging/setLevel, messages from remember, forget and
lookup_weather); lists paginated two items a page; server instructions;
rate limiting generous enough never to touch a well-behaved client.
`
