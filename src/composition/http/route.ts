/** What each part of the HTTP API adds to the app's router (the shape createApp takes). */
import type { AppOptions } from '../../api/app';

export type Route = AppOptions['routes'][number];
