import { describeSyncProtocol } from './sync-protocol.suite.ts';

describeSyncProtocol('PGlite', {});
