import { z } from 'zod';

// Imported first by extension.ts, before any schema is built. Zod's object schemas probe for
// `new Function` at construction and read the global `navigator` on the way; in VS Code 1.13x's
// extension host that read logs a PendingMigrationError at every activation. Jitless parsing
// never probes (and the schemas here are small: the compiled fast path buys nothing visible).
z.config({ jitless: true });
