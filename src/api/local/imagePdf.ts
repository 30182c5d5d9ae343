/** An uploaded image kept as published: a one-page PDF, the page the image's size (a point per pixel). */
import { PDFDocument } from 'pdf-lib';

export async function imageAsPdf(bytes: Uint8Array, kind: 'image/png' | 'image/jpeg'): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const image = kind === 'image/png' ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes);
  const page = pdf.addPage([image.width, image.height]);
  page.drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  return pdf.save();
}
