/**
 * The one place that touches @microsoft/signalr: a HubConnection configured the app's way. The
 * rest of src/realtime sees it as HubConnectionLike, which tests replace with a fake.
 */
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';

/** The part of SignalR's HubConnection the hub client uses. */
export interface HubConnectionLike {
  readonly connectionId: string | null;
  start(): Promise<void>;
  stop(): Promise<void>;
  on(event: string, handler: (payload: unknown) => void): void;
  onclose(callback: (error?: Error) => void): void;
  onreconnecting(callback: (error?: Error) => void): void;
  onreconnected(callback: (connectionId?: string) => void): void;
}

export interface HubConnectionConfig {
  hubUrl: string;
  /** Called by SignalR on every negotiate and WebSocket open, i.e. every (re)connect. */
  accessTokenFactory: () => Promise<string>;
  /** SignalR's automatic reconnect after a drop; null gives up (the caller takes over). */
  reconnectDelayMs: (previousRetryCount: number) => number | null;
  /** HTTP request timeout (negotiate). */
  requestTimeoutMs: number;
  serverTimeoutMs: number;
  keepAliveIntervalMs: number;
}

export function buildHubConnection(config: HubConnectionConfig): HubConnectionLike {
  return (
    new HubConnectionBuilder()
      .withUrl(config.hubUrl, {
        // The hub offers WebSockets only; naming it skips probing transports it never serves.
        transport: HttpTransportType.WebSockets,
        accessTokenFactory: config.accessTokenFactory,
        timeout: config.requestTimeoutMs,
      })
      .withAutomaticReconnect({
        nextRetryDelayInMilliseconds: ({ previousRetryCount }) =>
          config.reconnectDelayMs(previousRetryCount),
      })
      .withServerTimeout(config.serverTimeoutMs)
      .withKeepAliveInterval(config.keepAliveIntervalMs)
      // SignalR writes every failed attempt to console.error; the hub client logs one warning
      // per failure itself (spec section 8), and an expected offline retry is not an error.
      .configureLogging(LogLevel.None)
      .build()
  );
}
