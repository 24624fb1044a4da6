// @sds/sdk: typed clients for the sds management and runtime APIs (openapi-fetch typed by the
// contract's generated `paths`). Results are `{data, error, response}`; HTTP errors never throw.
export { createManagementClient, waitForJob } from './management.js';
export type { GenerationJob, JobRef, ManagementClient, ManagementClientOptions, ManagementPaths, WaitOptions } from './management.js';
export { createRuntimeClient } from './runtime.js';
export type { DefaultInputs, ExportQuery, PageQuery, ReferencedRowsOf, RowList, RuntimeClient, RuntimeClientOptions, RuntimePagination, RuntimePaths, TableName, TableReferences } from './runtime.js';
export { filters, serializeQuery } from './query.js';
export { FIELD_TYPE_FILTERS } from './generated/filter-operators.js';
export type { AnyFieldFilter, BooleanFilter, EqualityOperators, FieldFilter, FieldType, FieldTypeOf, FieldTypeOperators, FieldValue, FilterOperator, TypedFilter, NullFilter, NumberFilter, OrderingOperators, StringFilter, TextOperators, FieldName, Fields, Filters, AnyPopulate, ListQuery, Populate, PopulatedRow, ReadQuery, ReferencedRows, Row, Selected, Sort, SortTerm } from './query.js';
export { errorBodyMiddleware, isSdsError, SdsRequestError } from './result.js';
export type { SdsError, SdsResult } from './result.js';
export {
  retryAfterMs,
  SdsBadRequestError,
  SdsClientError,
  SdsConflictError,
  SdsException,
  SdsForbiddenError,
  SdsNetworkError,
  SdsNotFoundError,
  SdsRateLimitError,
  SdsServerError,
  SdsTimeoutError,
  SdsUnauthorizedError,
  toRequestError,
  unwrap,
} from './errors.js';
export type { DataOf, ResultLike } from './errors.js';
export type { CallOptions, RetryEvent, RetryOptions, TransportOptions } from './transport.js';
export { paginate } from './paginate.js';
export type { ListItem, ListParams, ListPath, PaginateOptions } from './paginate.js';
export { followGenerationEvents } from './events.js';
export type { FollowOptions } from './events.js';
export type { components, operations, paths } from './generated/openapi.js';
export { SOURCE_KINDS } from './generated/source-kinds.js';
export type * from './resources.js';
export type { ClientOptions, Middleware } from 'openapi-fetch';
