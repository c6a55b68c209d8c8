#if PostgreSQL
    import NIOCore
    import PostgresNIO

    /// One column of a bulk read, which the server aggregated into an array (`array_agg`), read here.
    ///
    /// A board of thousands of members is read as one row of arrays, not thousands of rows: postgres-nio spent
    /// about a microsecond on each value of a row (10 ms for 10,000 members' standings), and about 150 ns on
    /// each element of an array it decoded. Reading PostgreSQL's binary array format here costs a few
    /// nanoseconds an element. The elements are of the types the schema gives the columns; any other type, or
    /// a short array, is a damaged row.
    struct PostgresColumn {
        let name: String
        /// Elements in the array: none when the server aggregated no rows (`array_agg` gives NULL).
        let count: Int
        /// nil for the NULL of an aggregate of no rows, which has no elements to read.
        private let elementType: PostgresDataType?
        /// The elements, each as its length and bytes (array_send in PostgreSQL's arrayfuncs.c).
        private let elements: ByteBuffer

        init(_ cell: PostgresCell) throws {
            name = cell.columnName
            guard var buffer = cell.bytes else {
                (count, elementType, elements) = (0, nil, ByteBuffer())
                return
            }
            guard cell.format == .binary,
                let (dimensions, _, type) = buffer.readMultipleIntegers(as: (Int32, Int32, UInt32).self)
            else { throw PostgresStoreError.damagedRow(column: name) }
            switch dimensions {
            case 0: count = 0
            case 1:
                guard let (length, _) = buffer.readMultipleIntegers(as: (Int32, Int32).self), length >= 0 else {
                    throw PostgresStoreError.damagedRow(column: name)
                }
                count = Int(length)
            default: throw PostgresStoreError.damagedRow(column: name)
            }
            elementType = PostgresDataType(type)
            elements = buffer
        }

        /// Integers of an `int4[]` or `int8[]`, none NULL.
        func ints() throws -> [Int] { try notNull(optionalInts()) }

        /// Integers of an `int4[]` or `int8[]`, NULL as nil.
        func optionalInts() throws -> [Int?] {
            switch elementType {
            case nil: []
            case .int4: try elements { $1 == 4 ? $0.readInteger(as: Int32.self).map(Int.init) : nil }
            case .int8: try elements { $1 == 8 ? $0.readInteger(as: Int64.self).map(Int.init) : nil }
            default: throw PostgresStoreError.damagedRow(column: name)
            }
        }

        func strings() throws -> [String] { try notNull(optionalStrings()) }

        /// Texts, NULL as nil.
        func optionalStrings() throws -> [String?] {
            try requireElements(of: .text)
            return try elements { $0.readString(length: $1) }
        }

        func bools() throws -> [Bool] {
            try requireElements(of: .bool)
            return try notNull(elements { $1 == 1 ? $0.readInteger(as: UInt8.self).map { $0 != 0 } : nil })
        }

        func doubles() throws -> [Double] {
            try requireElements(of: .float8)
            return try notNull(
                elements { $1 == 8 ? $0.readInteger(as: UInt64.self).map(Double.init(bitPattern:)) : nil })
        }

        private func requireElements(of type: PostgresDataType) throws {
            guard elementType == nil || elementType == type else { throw PostgresStoreError.damagedRow(column: name) }
        }

        /// Each element read by `read`, nil for NULL. `read` gets the buffer at the element and its length in bytes,
        /// and reads it in place: a slice an element would retain and release the buffer's storage, which cost
        /// more than the reading. An element `read` cannot read, or reads more or less of, is damaged.
        private func elements<Value>(_ read: (inout ByteBuffer, Int) -> Value?) throws -> [Value?] {
            var buffer = elements
            var values: [Value?] = []
            values.reserveCapacity(count)
            for _ in 0..<count {
                guard let length = buffer.readInteger(as: Int32.self) else {
                    throw PostgresStoreError.damagedRow(column: name)
                }
                guard length >= 0 else {
                    values.append(nil)
                    continue
                }
                let end = buffer.readerIndex + Int(length)
                guard buffer.readableBytes >= length, let value = read(&buffer, Int(length)), buffer.readerIndex == end
                else { throw PostgresStoreError.damagedRow(column: name) }
                values.append(value)
            }
            return values
        }

        private func notNull<Value>(_ values: [Value?]) throws -> [Value] {
            try values.map { value in
                guard let value else { throw PostgresStoreError.damagedRow(column: name) }
                return value
            }
        }
    }

    extension Collection<PostgresColumn> {
        /// Columns of one scan, read together, hold as many elements each; a damaged row when they do not.
        func requireOneCount() throws {
            guard let count = self.first?.count else { return }
            if let other = first(where: { $0.count != count }) {
                throw PostgresStoreError.damagedRow(column: other.name)
            }
        }
    }
#endif
