package dev.headroom.core.input;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The mapping of a plain tree read from a large input ({@link YamlLoader#plainWithLines}): keys and values in two
 * arrays in input order, looked up by a linear scan, which is what the mappings of Kubernetes objects (a handful of
 * keys each) need; a {@code LinkedHashMap} holds an entry object per key and a table besides. Iterates in input
 * order, equals and hashes as any {@link Map}; {@link #put} may replace a value and add keys, {@link #remove} is not
 * supported (a read tree is not edited; {@code InputDocument#copyOfRaw} gives a mutable copy).
 */
public final class PlainMap extends AbstractMap<String, Object> {

  private String[] keys;
  private Object[] values;
  private int size;

  /** An empty map with room for {@code capacity} keys. */
  public PlainMap(int capacity) {
    keys = new String[Math.max(1, capacity)];
    values = new Object[keys.length];
  }

  private int indexOf(Object key) {
    for (int i = 0; i < size; i++) {
      if (keys[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public Object get(Object key) {
    int i = indexOf(key);
    return i < 0 ? null : values[i];
  }

  @Override
  public Object put(String key, Object value) {
    Objects.requireNonNull(key);
    int i = indexOf(key);
    if (i >= 0) {
      Object old = values[i];
      values[i] = value;
      return old;
    }
    if (size == keys.length) {
      keys = Arrays.copyOf(keys, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    keys[size] = key;
    values[size++] = value;
    return null;
  }

  /** Drops the unused capacity. */
  PlainMap trim() {
    if (keys.length > size) {
      keys = Arrays.copyOf(keys, size);
      values = Arrays.copyOf(values, size);
    }
    return this;
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return size;
      }

      @Override
      public Iterator<Entry<String, Object>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < size;
          }

          @Override
          public Entry<String, Object> next() {
            if (next >= size) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return new SimpleImmutableEntry<>(keys[i], values[i]);
          }
        };
      }
    };
  }
}
