/**
 * App-wide defaults. Values that differ per deployment come from the
 * VITE_* variables in .env / .env.production; everything else lives here.
 */

export interface LatLng {
  lat: number
  lng: number
}

export interface City extends LatLng {
  name: string
}

/** Where the map opens when the user has no trips yet. */
export const DEFAULT_CITY: City = {
  name: 'Lisbon',
  lat: 38.7223,
  lng: -9.1393,
}

export const appConfig = {
  title: import.meta.env.VITE_APP_TITLE ?? 'Atlas',
  apiBaseUrl: import.meta.env.VITE_API_BASE_URL ?? '/api',
  tileUrl: import.meta.env.VITE_TILE_URL ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  analytics: import.meta.env.VITE_ENABLE_ANALYTICS === 'true',

  map: {
    defaultZoom: 11,
    minZoom: 3,
    maxZoom: 18,
    center: DEFAULT_CITY,
    attribution: '&copy; OpenStreetMap contributors',
  },

  /** Wait this long after the last keystroke before querying /places/search. */
  searchDebounceMs: 350,
  /** Trips per page in the sidebar list. */
  pageSize: 20,
  /** Per-request timeout for the axios client, in milliseconds. */
  requestTimeoutMs: 15000,
  /** Retries for idempotent requests (GET/PUT/DELETE) on network errors and 5xx. */
  requestRetries: 2,
  /** Largest photo or GPX file a user may attach to a stop. */
  maxUploadBytes: 10 * 1024 * 1024,
} as const

export type AppConfig = typeof appConfig
