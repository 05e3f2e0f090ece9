// The `visAuthoring/lineChanges` request: line counts between two texts, for the format preview.
import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import { LineChangesRequest, type LineChangesParams, type LineChangesResult } from '../../../shared/protocol';
import { lineChanges } from './lineChanges';

export function registerLineChanges(connection: Connection): void {
  connection.onRequest(LineChangesRequest, (params: LineChangesParams): LineChangesResult => {
    if (typeof params?.before !== 'string' || typeof params?.after !== 'string') {
      throw new ResponseError(ErrorCodes.InvalidParams, `${LineChangesRequest} takes { before: string; after: string }`);
    }
    const { added, removed } = lineChanges(params.before, params.after);
    return { added, removed };
  });
}
