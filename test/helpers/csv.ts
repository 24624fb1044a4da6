// A strict RFC 4180 reader for tests: records of fields, each saying whether it was quoted (sds
// writes NULL as an empty unquoted field and the empty string as "").

export interface CsvField {
  value: string;
  quoted: boolean;
}

/** Parses CSV text with CRLF or LF line ends; throws on a malformed quote. */
export function parseCsv(text: string): CsvField[][] {
  const records: CsvField[][] = [];
  let record: CsvField[] = [];
  let index = 0;
  const atEnd = () => index >= text.length;
  while (!atEnd()) {
    let field: CsvField;
    if (text[index] === '"') {
      let value = '';
      index++;
      for (;;) {
        if (atEnd()) throw new Error('unterminated quoted field');
        const character = text[index]!;
        if (character === '"') {
          if (text[index + 1] === '"') {
            value += '"';
            index += 2;
            continue;
          }
          index++;
          break;
        }
        value += character;
        index++;
      }
      field = { value, quoted: true };
    } else {
      let end = index;
      while (end < text.length && text[end] !== ',' && text[end] !== '\r' && text[end] !== '\n') end++;
      const value = text.slice(index, end);
      if (value.includes('"')) throw new Error(`a quote inside an unquoted field: ${value}`);
      field = { value, quoted: false };
      index = end;
    }
    record.push(field);
    if (text[index] === ',') {
      index++;
      continue;
    }
    if (text[index] === '\r') index++;
    if (text[index] === '\n') index++;
    else if (!atEnd()) throw new Error(`unexpected character after a field at ${index}`);
    records.push(record);
    record = [];
  }
  return records;
}
