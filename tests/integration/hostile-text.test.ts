import { describeHostileText } from './hostile-text.suite.ts';

describeHostileText('PGlite', {});
