// Loaded by mocha before any spec: keeps test runs quiet and deterministic.
process.env.GATEWAY_LOG_LEVEL ??= 'silent';
