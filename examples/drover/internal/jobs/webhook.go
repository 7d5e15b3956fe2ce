// Package jobs contains the job handlers shipped with drover.
package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/kestrel-labs/drover/internal/queue"
	"github.com/kestrel-labs/drover/internal/retry"
)

// WebhookType is the job type handled by Webhook.
const WebhookType = "webhook.deliver"

// maxResponseBody limits how much of a failing response ends up in LastError.
const maxResponseBody = 512

// WebhookPayload is the expected job payload for webhook.deliver.
type WebhookPayload struct {
	URL     string            `json:"url"`
	Method  string            `json:"method,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    json.RawMessage   `json:"body,omitempty"`
}

// Webhook delivers HTTP callbacks. 4xx responses (other than 408 and 429)
// are treated as permanent failures; everything else is retried.
type Webhook struct {
	Client    *http.Client
	UserAgent string
}

// Handle implements worker.Handler.
func (w *Webhook) Handle(ctx context.Context, job *queue.Job) error {
	var p WebhookPayload
	if err := json.Unmarshal(job.Payload, &p); err != nil {
		return retry.Permanent(fmt.Errorf("decode payload: %w", err))
	}
	u, err := url.Parse(p.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return retry.Permanent(fmt.Errorf("invalid webhook url %q", p.URL))
	}
	method := p.Method
	if method == "" {
		method = http.MethodPost
	}

	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(p.Body))
	if err != nil {
		return retry.Permanent(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", w.UserAgent)
	req.Header.Set("X-Drover-Job-Id", job.ID)
	req.Header.Set("X-Drover-Attempt", fmt.Sprint(job.Attempt+1))
	for k, v := range p.Headers {
		req.Header.Set(k, v)
	}

	client := w.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("deliver webhook: %w", err)
	}
	defer resp.Body.Close()

	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil
	}

	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody))
	statusErr := fmt.Errorf("webhook %s returned %d: %s", u.Host, resp.StatusCode, bytes.TrimSpace(snippet))
	if resp.StatusCode >= 400 && resp.StatusCode < 500 &&
		resp.StatusCode != http.StatusRequestTimeout && resp.StatusCode != http.StatusTooManyRequests {
		return retry.Permanent(statusErr)
	}
	return statusErr
}

// Noop succeeds immediately. Useful to check a deployment end to end:
//
//	drover enqueue noop
func Noop(context.Context, *queue.Job) error { return nil }
