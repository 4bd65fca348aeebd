package exampleserver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// observation is one row of the fixed weather table.
type observation struct {
	City         string  `json:"city" jsonschema:"the city, as spelled in the table"`
	Conditions   string  `json:"conditions" jsonschema:"a short description of the sky"`
	TemperatureC float64 `json:"temperature_c" jsonschema:"air temperature in degrees Celsius"`
	HumidityPct  int     `json:"humidity_pct" jsonschema:"relative humidity in percent"`
}

// weatherTable is all the weather this server knows. It never changes: the
// tool reaches no network, which is why lookup_weather declares
// openWorldHint false, a claim a network-isolated probe can check.
var weatherTable = []observation{
	{City: "Amsterdam", Conditions: "light rain", TemperatureC: 11.5, HumidityPct: 87},
	{City: "Lima", Conditions: "overcast", TemperatureC: 18, HumidityPct: 80},
	{City: "Lisbon", Conditions: "sunny", TemperatureC: 21, HumidityPct: 55},
	{City: "Nairobi", Conditions: "partly cloudy", TemperatureC: 24, HumidityPct: 48},
	{City: "Oslo", Conditions: "snow showers", TemperatureC: -3, HumidityPct: 78},
	{City: "Tokyo", Conditions: "clear", TemperatureC: 16.5, HumidityPct: 60},
}

// lookupObservation finds a city case-insensitively.
func lookupObservation(city string) (observation, bool) {
	i := slices.IndexFunc(weatherTable, func(o observation) bool { return strings.EqualFold(o.City, city) })
	if i < 0 {
		return observation{}, false
	}
	return weatherTable[i], true
}

func cityNames() []string {
	names := make([]string, len(weatherTable))
	for i, o := range weatherTable {
		names[i] = o.City
	}
	return names
}

type lookupWeatherArgs struct {
	City string `json:"city" jsonschema:"the city to look up (case does not matter)"`
}

func lookupWeatherTool() *mcp.Tool {
	return newTool("lookup_weather", "Look up the weather (fixed table)", pureQuery,
		"Returns the weather for a city from a fixed, built-in table ("+strings.Join(cityNames(), ", ")+"); no network is used. "+
			"An unknown city is a tool error (isError) that lists the known ones.",
		schemaFor[lookupWeatherArgs](nil))
}

func lookupWeather(ctx context.Context, req *mcp.CallToolRequest, in lookupWeatherArgs) (*mcp.CallToolResult, observation, error) {
	o, ok := lookupObservation(in.City)
	if !ok {
		logTo(ctx, req.Session, "warning", "weather", map[string]any{"event": "unknown city"})
		return nil, observation{}, fmt.Errorf("no weather for %q: the table knows only %s; try one of those", in.City, strings.Join(cityNames(), ", "))
	}
	return nil, o, nil
}
