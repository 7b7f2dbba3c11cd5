// Ant Design: a date picker, a searchable select, a dropdown menu, a sortable
// and filterable table, a form that submits. Marks (data-act) are read only
// by the tests.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Button, DatePicker, Dropdown, Form, Input, Select, Table, Space, Typography, Checkbox, Radio } from 'antd';

const ORDERS = Array.from({ length: 8 }, (_, i) => ({
  key: String(i + 1), id: 1000 + i, customer: ['Ana', 'Bo', 'Chen', 'Dara', 'Eli', 'Femi', 'Gus', 'Hana'][i],
  total: [120, 35, 880, 42, 310, 99, 15, 640][i], status: i % 3 === 0 ? 'Shipped' : i % 3 === 1 ? 'Open' : 'Returned',
}));

function App() {
  const [status, setStatus] = useState('Ready');
  const [date, setDate] = useState(null);
  const columns = [
    { title: 'Order', dataIndex: 'id', render: (id) => <a href={`#order-${id}`} data-act={`order-${id}`}>#{id}</a> },
    { title: 'Customer', dataIndex: 'customer', sorter: (a, b) => a.customer.localeCompare(b.customer), onHeaderCell: () => ({ 'data-act': 'sort-customer' }) },
    { title: 'Total', dataIndex: 'total', sorter: (a, b) => a.total - b.total, onHeaderCell: () => ({ 'data-act': 'sort-total' }) },
    { title: 'Status', dataIndex: 'status' },
  ];
  const items = [
    { key: 'csv', label: <span data-act="export-csv">Export as CSV</span> },
    { key: 'pdf', label: <span data-act="export-pdf">Export as PDF</span> },
    { key: 'print', label: <span data-act="export-print">Print</span> },
  ];
  return (
    <div style={{ padding: 16, maxWidth: 900 }}>
      <Typography.Title level={1}>Orders</Typography.Title>
      <Space style={{ marginBottom: 16 }}>
        <DatePicker data-act="date" placeholder="Delivery date" onChange={(d) => setDate(d ? d.format('YYYY-MM-DD') : null)} />
        <Dropdown menu={{ items, onClick: ({ key }) => setStatus(`Exported ${key}`) }} trigger={['click']}>
          <Button data-act="export">Export</Button>
        </Dropdown>
      </Space>
      <Table columns={columns} dataSource={ORDERS} pagination={false} size="small" />
      <Typography.Title level={2}>New order</Typography.Title>
      <Form layout="vertical" style={{ maxWidth: 400 }} onFinish={(v) => setStatus(`Created order for ${v.customer} (${v.product}) on ${date || 'no date'}`)}>
        <Form.Item label="Customer" name="customer" rules={[{ required: true }]}>
          <Input data-act="customer" />
        </Form.Item>
        <Form.Item label="Product" name="product">
          <Select showSearch data-act="product" placeholder="Pick a product"
            options={['Chair', 'Desk', 'Lamp', 'Shelf', 'Sofa'].map((p) => ({ value: p, label: p }))} />
        </Form.Item>
        <Form.Item name="gift" valuePropName="checked"><Checkbox data-act="gift">Gift wrap</Checkbox></Form.Item>
        <Form.Item name="speed" initialValue="normal">
          <Radio.Group>
            <Radio value="normal" data-act="normal">Normal</Radio>
            <Radio value="express" data-act="express">Express</Radio>
          </Radio.Group>
        </Form.Item>
        <Button type="primary" htmlType="submit" data-act="create">Create order</Button>
      </Form>
      <p role="status" id="status">{status}</p>
    </div>
  );
}

createRoot(document.getElementById('root')).render(<App />);
