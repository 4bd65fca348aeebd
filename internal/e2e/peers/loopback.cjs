'use strict';
// Preload (node --require) that makes every TCP server of the process listen
// on 127.0.0.1 only. server-everything's HTTP modes call app.listen(PORT),
// which binds all interfaces; a test peer must not be reachable from the
// network, and the servers offer no option to choose the address.
const net = require('node:net');

const listen = net.Server.prototype.listen;

function isPort(value) {
  return typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value));
}

net.Server.prototype.listen = function listenOnLoopback(...args) {
  const first = args[0];
  if (first !== null && typeof first === 'object' && first.path === undefined && first.fd === undefined && !(first instanceof net.Server)) {
    args[0] = { ...first, host: '127.0.0.1' };
  } else if (isPort(first) || first === undefined || typeof first === 'function') {
    // listen([port[, host[, backlog]]][, callback])
    const port = isPort(first) ? first : 0;
    const rest = isPort(first) ? args.slice(1) : args;
    if (typeof rest[0] === 'string') {
      rest.shift();
    }
    args = [port, '127.0.0.1', ...rest];
  }
  return listen.apply(this, args);
};
