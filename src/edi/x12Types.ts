/** One X12 segment: its tag and its elements, as written (shared by the writer, the reader and the element table). */
export type X12Segment = readonly [tag: string, ...elements: string[]];
