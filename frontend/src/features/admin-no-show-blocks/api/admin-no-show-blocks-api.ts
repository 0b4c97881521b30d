import { baseApi } from '../../../api/base-api';
import type { NoShowBlock, NoShowBlockLifted } from '../../../api/types';

const LIST = { type: 'NoShowBlock', id: 'LIST' } as const;

/** docs/product.md#no-show-rule: the addresses blocked now, and lifting a block by its key. */
export const adminNoShowBlocksApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getNoShowBlocks: build.query<{ content: NoShowBlock[] }, void>({
      query: () => 'admin/no-show-blocks',
      providesTags: [LIST],
    }),
    /** 404 when the key is no longer blocked. */
    liftNoShowBlock: build.mutation<NoShowBlockLifted, string>({
      query: (key) => ({
        url: `admin/no-show-blocks/${encodeURIComponent(key)}`,
        method: 'DELETE',
      }),
      invalidatesTags: [LIST],
    }),
  }),
});

export const { useGetNoShowBlocksQuery, useLiftNoShowBlockMutation } = adminNoShowBlocksApi;
