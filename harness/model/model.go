// Package model is the harness's wire client. It speaks the OpenAI chat
// completions format (Ollama, llama.cpp server, vLLM, OpenAI) or the Anthropic
// messages format, over the unix socket in MODEL_SOCKET or over MODEL_URL.
// It is immutable plumbing: the model and its options are the operator's.
package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"ratchet/harness/core"
)

// Config selects the server, the wire format and the model.
type Config struct {
	API     string          // "openai" or "anthropic"
	Socket  string          // unix socket path; wins over URL
	URL     string          // base URL, e.g. http://127.0.0.1:11434
	Name    string          // model name
	Key     string          // credential; empty inside the sandbox
	Options json.RawMessage // merged into every request body
	Timeout time.Duration   // per request
}

// FromEnv reads MODEL_API, MODEL_SOCKET, MODEL_URL, MODEL_NAME, MODEL_OPTIONS
// and MODEL_API_KEY.
func FromEnv() (Config, error) {
	c := Config{
		API:    os.Getenv("MODEL_API"),
		Socket: os.Getenv("MODEL_SOCKET"),
		URL:    os.Getenv("MODEL_URL"),
		Name:   os.Getenv("MODEL_NAME"),
		Key:    os.Getenv("MODEL_API_KEY"),
	}
	if c.API == "" {
		c.API = "openai"
	}
	if c.API != "openai" && c.API != "anthropic" {
		return c, fmt.Errorf("model: MODEL_API=%q is not supported; use openai or anthropic", c.API)
	}
	if c.Socket == "" && c.URL == "" {
		c.URL = "http://127.0.0.1:11434"
	}
	if o := strings.TrimSpace(os.Getenv("MODEL_OPTIONS")); o != "" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(o), &m); err != nil {
			return c, fmt.Errorf("model: MODEL_OPTIONS is not a JSON object (%v); fix it or unset it", err)
		}
		c.Options = json.RawMessage(o)
	}
	return c, nil
}

// Client sends one complete request per call and waits for the whole reply.
type Client struct {
	cfg  Config
	http *http.Client
	base string
}

// New returns a client for cfg.
func New(cfg Config) *Client {
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Minute
	}
	tr := &http.Transport{}
	base := strings.TrimRight(cfg.URL, "/")
	if cfg.Socket != "" {
		sock := cfg.Socket
		tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		}
		base = "http://model"
	}
	return &Client{cfg: cfg, http: &http.Client{Transport: tr, Timeout: cfg.Timeout}, base: base}
}

// Seed is the fixed sampling seed sent where the API allows it.
const Seed = 7

// Chat sends the conversation and the tool specs and returns the reply.
// Failures are *core.ModelError.
func (c *Client) Chat(ctx context.Context, msgs []core.Message, tools []core.Spec) (core.Reply, error) {
	var (
		body []byte
		path string
		err  error
	)
	if c.cfg.API == "anthropic" {
		path = "/v1/messages"
		body, err = encodeAnthropic(c.cfg.Name, msgs, tools)
	} else {
		path = "/v1/chat/completions"
		body, err = encodeOpenAI(c.cfg.Name, msgs, tools)
	}
	if err != nil {
		return core.Reply{}, &core.ModelError{Message: "encode request: " + err.Error()}
	}
	if body, err = mergeOptions(body, c.cfg.Options); err != nil {
		return core.Reply{}, &core.ModelError{Message: "merge MODEL_OPTIONS: " + err.Error()}
	}
	req, err := http.NewRequestWithContext(ctx, "POST", c.base+path, bytes.NewReader(body))
	if err != nil {
		return core.Reply{}, &core.ModelError{Message: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	if c.cfg.API == "anthropic" {
		req.Header.Set("anthropic-version", "2023-06-01")
		if c.cfg.Key != "" {
			req.Header.Set("x-api-key", c.cfg.Key)
		}
	} else if c.cfg.Key != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.Key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return core.Reply{}, &core.ModelError{Transport: true, Message: err.Error()}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return core.Reply{}, &core.ModelError{Transport: true, Message: "read reply: " + err.Error()}
	}
	if resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(raw))
		if len(msg) > 500 {
			msg = msg[:500]
		}
		return core.Reply{}, &core.ModelError{Status: resp.StatusCode, Message: msg}
	}
	var reply core.Reply
	if c.cfg.API == "anthropic" {
		reply, err = decodeAnthropic(raw)
	} else {
		reply, err = decodeOpenAI(raw)
	}
	if err != nil {
		return core.Reply{}, &core.ModelError{Message: "malformed reply: " + err.Error()}
	}
	return reply, nil
}

// mergeOptions overlays the operator's options on the body. Keys come out
// sorted, so equal inputs give equal bytes.
func mergeOptions(body, opts json.RawMessage) ([]byte, error) {
	if len(opts) == 0 {
		return body, nil
	}
	var b, o map[string]json.RawMessage
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(opts, &o); err != nil {
		return nil, err
	}
	for k, v := range o {
		b[k] = v
	}
	return json.Marshal(b)
}

var errNoChoice = errors.New("no choices in reply")
