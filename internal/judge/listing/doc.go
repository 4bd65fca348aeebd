// Package listing follows the lists a server offers (tools, resources,
// prompts): the pages of one listing, the changes a list_changed notification
// announces, and what was listed when a later request names an item.
package listing
