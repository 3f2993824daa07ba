package main

import (
	"encoding/json"
	"time"
)

// conn stands in for a player's websocket (server.Connection): the engine writes its messages to it.
// Prompts ("action"), warnings ("warn", "action_error") and the end of the duel ("duel_finished") are
// passed on to the driver; everything else (state broadcasts, chat) is dropped.
type conn struct {
	player  int // 1 or 2: the engine's player
	prompts chan prompt
	warns   chan string
	winner  chan string
}

type prompt struct {
	player     int
	actionType string
	text       string
	cards      []string // engine card ids offered
	min, max   int
	cancel     bool
}

type message struct {
	Header      string `json:"header"`
	ActionType  string `json:"actionType"`
	Text        string `json:"text"`
	Message     string `json:"message"`
	Cancellable bool   `json:"cancellable"`
	Min         int    `json:"minSelections"`
	Max         int    `json:"maxSelections"`
	Cards       json.RawMessage
	Winner      *struct {
		UID string `json:"uid"`
	} `json:"winner"`
}

type cardState struct {
	ID string `json:"virtualId"`
}

func (c *conn) SetReadLimit(int64)                    {}
func (c *conn) SetReadDeadline(t time.Time) error     { return nil }
func (c *conn) SetPongHandler(func(string) error)     {}
func (c *conn) ReadMessage() (int, []byte, error)     { select {} }
func (c *conn) SetWriteDeadline(t time.Time) error    { return nil }
func (c *conn) WriteMessage(t int, data []byte) error { return nil }
func (c *conn) Close() error                          { return nil }

func (c *conn) WriteJSON(v interface{}) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var m message
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	switch m.Header {
	case "action":
		p := prompt{player: c.player, actionType: m.ActionType, text: m.Text, min: m.Min, max: m.Max,
			cancel: m.Cancellable}
		var list []cardState
		if json.Unmarshal(m.Cards, &list) == nil {
			for _, cs := range list {
				p.cards = append(p.cards, cs.ID)
			}
		} else { // a multipart prompt: groups of cards
			var groups map[string][]cardState
			if json.Unmarshal(m.Cards, &groups) == nil {
				for _, g := range groups {
					for _, cs := range g {
						p.cards = append(p.cards, cs.ID)
					}
				}
			}
		}
		c.prompts <- p
	case "warn", "action_error":
		select {
		case c.warns <- m.Message:
		default:
		}
	case "duel_finished":
		if m.Winner != nil {
			select {
			case c.winner <- m.Winner.UID:
			default:
			}
		}
	}
	return nil
}
