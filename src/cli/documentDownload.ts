/**
 * The BOL, the labels and the invoice in remote mode (issue 40, item 5): asked for with the
 * published GET .../document/{documentType}, then fetched through the download link it answers,
 * which any server of the published API gives. Local mode renders them directly, as before.
 */
import type { ApiResult, ShipperApi } from '../api/types.js';

export type DownloadableDocument = 'BILL_OF_LADING' | 'SHIPPING_LABEL' | 'INVOICE';

interface Downloader {
  download(link: string): Promise<Uint8Array>;
}

function downloaderOf(api: ShipperApi): Downloader | undefined {
  return api.mode === 'remote' && typeof (api as Partial<Downloader>).download === 'function' ? (api as unknown as Downloader) : undefined;
}

/** The PDF through its link in remote mode; `render` (the engine's own rendering) otherwise. */
export async function documentPdf(api: ShipperApi, orderNumber: string, type: DownloadableDocument, render: () => Promise<ApiResult<Uint8Array>>): Promise<ApiResult<Uint8Array>> {
  const downloader = downloaderOf(api);
  if (!downloader) return render();
  const { data: document, warnings } = await api.getDocument(orderNumber, type);
  return { data: await downloader.download(document.downloadLink), warnings };
}
