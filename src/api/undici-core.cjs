'use strict';
/**
 * The part of undici the API clients use (src/api/client.ts): its Pool and Agent, with `request`
 * on every dispatcher, as undici's own index sets it up. The index also loads fetch, WebSocket,
 * EventSource, the proxy and mock agents, the interceptors and the cache stores: about 130 files
 * and some 100 ms of CPU at the start of every plan, apply or drift, where these modules are about
 * 40 files and less than half of that (docs/performance.md, "Start-up"). The build bundles this
 * file into one (scripts/build.ts); test/unit/api/undici-core.test.ts fails if undici moves them.
 */
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');
const request = require('undici/lib/api/api-request.js');

// what undici's index does (`Object.assign(Dispatcher.prototype, api)`), for the one method used
if (Dispatcher.prototype.request === undefined) Dispatcher.prototype.request = request;

module.exports = {
  Pool: require('undici/lib/dispatcher/pool.js'),
  Agent: require('undici/lib/dispatcher/agent.js'),
};
