/** Sends one callback over HTTP. The outcome is data; what it means is the delivery decider's call. */
export interface CallbackRequest {
  url: string;
  contentType: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export interface CallbackResponse {
  /** HTTP status of the answer; null when none came (refused, reset, timed out, bad address). */
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  timedOut: boolean;
}

export interface CallbackSender {
  send(request: CallbackRequest): Promise<CallbackResponse>;
  close(): void;
}
